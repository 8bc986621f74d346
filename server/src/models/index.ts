import type { Config } from '../config';
import type { ModelProvider } from './provider';
import { OfflineProvider } from './offline';

/** The configured model provider (README "Model providers"). */
export function createModelProvider(config: Config): ModelProvider {
  void config;
  return new OfflineProvider();
}
