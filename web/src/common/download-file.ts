import { authStore } from '../auth/auth-store';

/** The file name a Content-Disposition header suggests, else `fallback`. */
export function suggestedName(disposition: string | null, fallback: string): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;
}

/**
 * Downloads a file the API writes (an export) under the name the server suggests. The API wants the
 * signed-in user's bearer token, which a plain link cannot send, so the file is fetched and handed to
 * the browser as a blob. Throws when the server refuses.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  const { token } = authStore.getState();
  const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new Error(`The export answered ${res.status}`);
  const href = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = suggestedName(res.headers.get('content-disposition'), fallbackName);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
