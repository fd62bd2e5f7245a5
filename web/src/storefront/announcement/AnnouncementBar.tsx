import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { useShop } from '../../settings/shop-store';
import './announcement-bar.css';

/** Where a shopper closed the bar (for this tab): the text they closed, so a new announcement shows again. */
const DISMISSED_KEY = 'announcementDismissed';

/** The owner's console keeps its own frame: the bar is for shoppers. */
const inConsole = (path: string) => path.startsWith('/admindash') || path === '/settings' || path.startsWith('/admin/');

/**
 * The announcement bar above the header (Settings → announcement): its text, a link when one is set,
 * and a button to close it for this tab. Drawn by the server too, so it shows before any script runs;
 * a shopper's closing is read once the page is live (the server cannot know it).
 */
export function AnnouncementBar() {
  const { announcement } = useShop();
  const { pathname } = useLocation();
  const [dismissed, setDismissed] = useState<string | null>(null);
  const intl = useIntl();

  useEffect(() => {
    try {
      setDismissed(sessionStorage.getItem(DISMISSED_KEY));
    } catch {
      // Storage refused (private mode): the bar simply stays.
    }
  }, []);

  if (!announcement || inConsole(pathname) || dismissed === announcement.text) return null;
  const { text, link } = announcement;
  const close = () => {
    setDismissed(text);
    try {
      sessionStorage.setItem(DISMISSED_KEY, text);
    } catch {
      // Closed for this page only.
    }
  };
  const content = (
    <>
      <span className="announcement-text">{text}</span>
      {/* A character, not an icon: it draws the same before any script has loaded an icon's paths. */}
      {link && (
        <span className="announcement-arrow" aria-hidden>
          →
        </span>
      )}
    </>
  );
  return (
    <section className="announcement-bar" aria-label={intl.formatMessage({ id: 'announcement.label', defaultMessage: 'Announcement' })}>
      <p className="announcement-body">
        {!link ? content : link.startsWith('/') ? <Link to={link}>{content}</Link> : <a href={link}>{content}</a>}
      </p>
      <Button className="announcement-close" variant="minimal" size="small" icon="cross" aria-label={intl.formatMessage({ id: 'announcement.close', defaultMessage: 'Close the announcement' })} onClick={close} />
    </section>
  );
}
