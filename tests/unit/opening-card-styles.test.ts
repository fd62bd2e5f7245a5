import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MessageLocation } from '../../server/src/modules/catalogue/e-greeting-card.entity.js';
import { ECARD_CSS, fontCss } from '../../server/src/modules/ecard/ecard-assets.js';
import { placementClass } from '../../web/src/common/card/placement.js';
import type { MessageLocation as ClientLocation } from '../../web/src/apollo/generated/graphql.js';

const CARD_CSS = fs.readFileSync(new URL('../../web/src/common/card/opening-card.css', import.meta.url), 'utf8');

describe('the opening card drawn by one stylesheet', () => {
  it('places the message by one rule per placement, named alike by the e-card page and the previews', () => {
    const rules = [...CARD_CSS.matchAll(/\.card-book \.placement-([a-z-]+) \{/g)].map((match) => match[1]);
    expect(rules.sort()).toEqual(Object.values(MessageLocation).sort());
    for (const [name, location] of Object.entries(MessageLocation)) {
      // The GraphQL name (what the previews hold) and the stored value (what the e-card page writes) meet in one class.
      expect(placementClass(name as ClientLocation)).toBe(`placement-${location}`);
    }
  });

  it('puts the same card rules in the e-card page, compacted, before the card font', () => {
    expect(ECARD_CSS).not.toContain('/*');
    for (const selector of ['.card-book .placement-bottom-right{', '.card-book .cover-inner{', '.card-book .message p{', '.stage{', '.thanks{']) expect(ECARD_CSS).toContain(selector);
    expect(fontCss('')).toBe('');
    expect(fontCss('Dancing Script')).toContain('font-display: swap');
    expect(fontCss('Dancing Script')).toContain(".card-book .message p { font-family: 'Dancing Script', 'Dancing Script Local', Georgia");
  });
});
