import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import { downloadFile } from '../../common/download-file';
import { reportError } from '../../common/report-error';

/** "Download CSV": the range's days or weeks as the server writes them (GET /api/admin/sales.csv). */
export function SalesCsvButton({ query, disabled }: { query: URLSearchParams; disabled?: boolean }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadFile(`/api/admin/sales.csv?${query}`, 'sales.csv');
    } catch (error) {
      reportError('downloading sales', 'Failed to download the sales', error);
    } finally {
      setBusy(false);
    }
  };
  return <Button icon="download" text="Download CSV" loading={busy} disabled={disabled} onClick={() => void download()} />;
}
