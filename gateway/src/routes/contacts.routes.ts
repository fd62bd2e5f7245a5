import type { Services } from '../../../server/src/services.js';
import { body, queryText, type RouteDef } from '../route.js';

/** The address book as a file, and the link in an occasion reminder that turns it off. */
export function contactRoutes({ contacts, occasionReminders }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/account/contacts.csv',
      access: 'user',
      async handler(ctx, _req, res) {
        const csv = await contacts.exportCsv(ctx);
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        res.setHeader('Content-Disposition', `attachment; filename="address-book-${new Date().toISOString().slice(0, 10)}.csv"`);
        res.setHeader('Cache-Control', 'no-store');
        res.status(200).send(csv);
      },
    },
    {
      // The reminder's "Turn off this reminder" page posts here, and so does a mail program's
      // one-click unsubscribe (RFC 8058: the token in the address, a form body that says nothing more).
      method: 'post',
      path: '/reminders/stop',
      access: 'public',
      async handler(ctx, req, res) {
        const token = queryText(req.query.token) || body(req).token;
        const stopped = await occasionReminders.stop(ctx, token);
        res.setHeader('Cache-Control', 'no-store');
        res.status(200).json({ message: `You will get no more reminders of ${stopped.contactName}'s ${stopped.label}.`, contact_name: stopped.contactName, occasion: stopped.label });
      },
    },
  ];
}
