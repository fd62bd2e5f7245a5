import { OverlayToaster, Position, type Intent, type Toaster } from '@blueprintjs/core';

/** The one toaster of the app (the admin screens' snackbars). */
export const toaster: Promise<Toaster> = OverlayToaster.create({ position: Position.BOTTOM, maxToasts: 3 });

export const SNACKBAR_MS = 3000;

/** A snackbar: success by default, the error colour for failures; it hides after 3000 ms. */
export async function snackbar(message: string, intent: Intent = 'success'): Promise<void> {
  (await toaster).show({ message, intent, timeout: SNACKBAR_MS, icon: intent === 'danger' ? 'error' : 'tick-circle' });
}
