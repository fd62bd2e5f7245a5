import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import { downloadFile } from '../../common/download-file';
import { reportError } from '../../common/report-error';

/** "Export CSV": downloads the orders of the current search as the server writes them. */
export function ExportCsvButton({ search }: { search: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadFile(`/api/admin/orders.csv?search=${encodeURIComponent(search)}`, `orders-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (error) {
      reportError('exporting orders', 'Failed to export orders', error);
    } finally {
      setBusy(false);
    }
  };
  return <Button icon="download" text="Export CSV" loading={busy} onClick={() => void download()} />;
}
