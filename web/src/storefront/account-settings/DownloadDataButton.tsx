import { useState } from 'react';
import { useIntl } from 'react-intl';
import { Button } from '@blueprintjs/core';
import { authStore } from '../../auth/auth-store';
import { snackbar } from '../../common/toaster';

/** The file name the server gave (Content-Disposition), or a plain one. */
function fileNameOf(response: Response): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? 'art-and-song-cards-data.json';
}

/** "Download my data": `GET /api/account/export` with the session, saved as the JSON file it is. */
export function DownloadDataButton() {
  const intl = useIntl();
  const [loading, setLoading] = useState(false);
  const failed = intl.formatMessage({ id: 'settings.data.failed', defaultMessage: 'The download failed.' });

  const download = async () => {
    setLoading(true);
    try {
      const token = authStore.getState().token;
      const response = await fetch('/api/account/export', { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!response.ok) throw new Error(((await response.json().catch(() => null)) as { message?: string } | null)?.message ?? failed);
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = fileNameOf(response);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      void snackbar(error instanceof Error && error.message ? error.message : failed, 'danger');
    } finally {
      setLoading(false);
    }
  };

  return <Button icon="download" text={intl.formatMessage({ id: 'settings.data.download', defaultMessage: 'Download my data' })} loading={loading} onClick={() => void download()} />;
}
