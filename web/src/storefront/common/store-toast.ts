import { toaster } from '../../common/toaster';

/** A storefront notice with one action ("View cart"). */
export async function snackbarWithAction(message: string, action: { text: string; onClick: () => void }): Promise<void> {
  (await toaster()).show({ message, intent: 'success', icon: 'tick-circle', timeout: 5000, action });
}
