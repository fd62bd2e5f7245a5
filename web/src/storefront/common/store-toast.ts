/**
 * A storefront notice with one action ("View cart"). The toaster (Blueprint's overlay toaster) is
 * fetched with the first notice: a shopper's first page never waits for it.
 */
export async function snackbarWithAction(message: string, action: { text: string; onClick: () => void }): Promise<void> {
  const toasts = await import('../../common/toaster');
  await toasts.snackbarWithAction(message, action, 5000);
}
