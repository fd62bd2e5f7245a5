import { authStore } from '../../auth/auth-store';

export class UploadError extends Error {
  constructor(
    message: string,
    readonly statusText: string,
  ) {
    super(message);
  }
}

/**
 * Uploads files into a folder through the REST endpoint, reporting progress (0..1) as the bytes go
 * out; fetch cannot report upload progress, XMLHttpRequest can.
 */
export function uploadFiles(folderId: number, files: File[], onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    const request = new XMLHttpRequest();
    request.open('POST', `/api/media/files/${folderId}`);
    const { token } = authStore.getState();
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve();
      let message = '';
      try {
        message = JSON.parse(request.responseText).message ?? '';
      } catch {
        // not JSON: keep the status text only
      }
      reject(new UploadError(message, request.statusText || String(request.status)));
    };
    request.onerror = () => reject(new UploadError('The connection failed.', 'Network error'));
    request.send(form);
  });
}
