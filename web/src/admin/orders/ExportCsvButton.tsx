import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import { authStore } from '../../auth/auth-store';
import { reportError } from '../../common/report-error';

/** The file name the server suggests, else a dated one. */
function fileName(disposition: string | null): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? `orders-${new Date().toISOString().slice(0, 10)}.csv`;
}

/** "Export CSV": downloads the orders of the current search as the server writes them. */
export function ExportCsvButton({ search }: { search: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const { token } = authStore.getState();
      const res = await fetch(`/api/admin/orders.csv?search=${encodeURIComponent(search)}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
      if (!res.ok) throw new Error(`The export answered ${res.status}`);
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName(res.headers.get('content-disposition'));
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      reportError('exporting orders', 'Failed to export orders', error);
    } finally {
      setBusy(false);
    }
  };
  return <Button icon="download" text="Export CSV" loading={busy} onClick={() => void download()} />;
}
