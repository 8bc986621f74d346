import { useMe } from '../api/queries';

/** The landing screen after sign-in. */
export function Home() {
  const me = useMe();
  return (
    <section>
      <h1>{me.data?.item.displayName ? `Welcome, ${me.data.item.displayName}` : 'Welcome'}</h1>
      <p className="muted">Pick a project in the sidebar.</p>
    </section>
  );
}
