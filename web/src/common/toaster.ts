import { createElement, type ReactNode } from 'react';
import { OverlayToaster, Position, type Intent, type Toaster } from '@blueprintjs/core';

let created: Promise<Toaster> | null = null;

/** The one toaster of the app (the admin screens' snackbars), made when first shown: never on the server, never on a page's start. */
export function toaster(): Promise<Toaster> {
  created ??= OverlayToaster.create({ position: Position.BOTTOM, maxToasts: 3 });
  return created;
}

export const SNACKBAR_MS = 3000;

/**
 * A snackbar: success by default, the error colour for failures; it hides after 3000 ms. `detail`
 * (the server's reason, when it gave one a person can act on) goes on a line of its own under the
 * message.
 */
export async function snackbar(message: string, intent: Intent = 'success', detail?: string): Promise<void> {
  const content: ReactNode = detail
    ? createElement('div', null, createElement('div', null, message), createElement('div', { className: 'snackbar-detail' }, detail))
    : message;
  (await toaster()).show({ message: content, intent, timeout: detail ? SNACKBAR_MS * 2 : SNACKBAR_MS, icon: intent === 'danger' ? 'error' : 'tick-circle' });
}

/** A success snackbar with one action ("Undo", "View cart"); it stays long enough to be acted on. */
export async function snackbarWithAction(message: string, action: { text: string; onClick: () => void }, timeout = 10_000): Promise<void> {
  (await toaster()).show({ message, intent: 'success', icon: 'tick-circle', timeout, action });
}
