import { authStore } from '../../auth/auth-store';
import type { CardPersonalisation } from '../cart/cart-lines';
import { toPersonalisationInput } from '../cart/cart-lines';
import { pageIntl, pageLocale } from '../../i18n/page-intl';

/** What the shop answered: the page, or why not (the shop's own message). */
export type PreviewAnswer = { ok: true; html: string } | { ok: false; message: string };

async function post(path: string, productId: number, personalisation: CardPersonalisation): Promise<Response> {
  const token = authStore.getState().token;
  return fetch(path, {
    method: 'POST',
    // The preview, its test e-mail and the shop's refusals speak the page's language.
    headers: { 'Content-Type': 'application/json', 'Accept-Language': pageLocale(), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ product_id: productId, personalisation: toPersonalisationInput(personalisation) }),
  });
}

async function refusal(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
  return typeof body?.message === 'string' ? body.message : pageIntl().formatMessage({ id: 'preview.httpError', defaultMessage: 'The shop answered {status}. Please try again.' }, { status: String(res.status) });
}

/** The e-card page as its first recipient will see it (`POST /api/ecards/preview`). */
export async function fetchPreview(productId: number, personalisation: CardPersonalisation): Promise<PreviewAnswer> {
  try {
    const res = await post('/api/ecards/preview', productId, personalisation);
    return res.ok ? { ok: true, html: await res.text() } : { ok: false, message: await refusal(res) };
  } catch {
    return { ok: false, message: pageIntl().formatMessage({ id: 'preview.offline', defaultMessage: 'The preview could not be loaded. Check your connection and try again.' }) };
  }
}

/** "Send a test to myself" (`POST /api/ecards/preview/send`): the address it went to, or why not. */
export async function sendTestToMyself(productId: number, personalisation: CardPersonalisation): Promise<{ ok: true; to: string } | { ok: false; message: string }> {
  try {
    const res = await post('/api/ecards/preview/send', productId, personalisation);
    if (res.status === 202) return { ok: true, to: String(((await res.json()) as { to: string }).to) };
    return { ok: false, message: await refusal(res) };
  } catch {
    return { ok: false, message: pageIntl().formatMessage({ id: 'preview.sendOffline', defaultMessage: 'The test could not be sent. Check your connection and try again.' }) };
  }
}
