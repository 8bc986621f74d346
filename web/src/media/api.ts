/**
 * The media feature's data (docs/architecture.md "Web data access"): a folder's media as a TanStack
 * Query `queryOptions` (key from {@link mediaKeys}), deleting one, and uploading with progress.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, unwrap } from '../api/client';
import { mediaKeys } from '../api/keys';

/** The media of a folder; nothing is read while `folderId` is undefined. */
export const mediaQuery = (folderId: string | undefined) =>
  queryOptions({
    queryKey: mediaKeys.inFolder(folderId),
    enabled: folderId !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/folders/{folderId}/medias', { params: { path: { folderId: folderId! } } })).items,
  });

/** Deletes a media file of folder `folderId` and refreshes the folder's list. */
export function useDeleteMedia(folderId: string | undefined) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => unwrap(await api.DELETE('/api/v1/medias/{mediaId}', { params: { path: { mediaId: id } } })),
    onSettled: () => queries.invalidateQueries({ queryKey: mediaKeys.inFolder(folderId) }),
  });
}

/**
 * Uploads one file with progress (XMLHttpRequest: fetch reports no upload progress), with the
 * session cookie, as `POST /api/v1/folders/{folderId}/medias`.
 * @throws ApiError from the error envelope.
 */
export function uploadFile(folderId: string, file: File, onProgress: (loaded: number, total: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/v1/folders/${encodeURIComponent(folderId)}/medias`);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.total);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let body: { code?: string; message?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // not JSON
      }
      reject(new ApiError(xhr.status, body.code ?? `HTTP_${xhr.status}`, body.message ?? xhr.statusText));
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'the upload was interrupted'));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
