import '../../storefront/announcement/announcement-bar.css';

/**
 * How the shop's announcement bar reads while the sale runs: the banner, with the arrow of its link
 * to the shop's "On sale" filter. Without a banner the bar keeps the owner's own announcement.
 */
export function BannerPreview({ text }: { text: string }) {
  return (
    <figure className="sale-banner-preview">
      <figcaption>Announcement bar while the sale runs</figcaption>
      {text ? (
        <div className="announcement-bar">
          <p className="announcement-body">
            <span className="announcement-text">{text}</span>
            <span className="announcement-arrow" aria-hidden>
              →
            </span>
          </p>
        </div>
      ) : (
        <p className="sale-banner-none">No banner: the bar shows the shop's own announcement, if any.</p>
      )}
    </figure>
  );
}
