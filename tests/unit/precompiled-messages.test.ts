import type { Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import { precompiledMessages } from '../../web/vite/precompiled-messages.js';

type Transform = (this: { error(message: string): never }, code: string, id: string) => { code: string } | null;

/**
 * The build's parsed texts (web/vite/precompiled-messages.ts): a message written in the code ships as
 * the parser's elements, and nothing else named `defaultMessage` is touched.
 */
describe('texts parsed at build', () => {
  const plugin = precompiledMessages({ src: '/app/src' });
  const hook = plugin.transform as Exclude<Plugin['transform'], Function | undefined>;
  const context = {
    error(message: string): never {
      throw new Error(message);
    },
  };
  const transform = (code: string, id = '/app/src/page.tsx') => (hook.handler as unknown as Transform).call(context, code, id)?.code ?? null;

  it('writes a message of the code and of JSX as its elements', () => {
    expect(transform(`const m = { id: 'a.b', defaultMessage: 'Hello {name}' };`)).toBe(
      `const m = { id: 'a.b', defaultMessage: [{"type":0,"value":"Hello "},{"type":1,"value":"name"}] };`,
    );
    expect(transform(`<FormattedMessage id="a.c" defaultMessage="Hi" />`)).toBe(`<FormattedMessage id="a.c" defaultMessage={[{"type":0,"value":"Hi"}]} />`);
  });

  it("leaves an empty text as it is: a form's card default message starts empty, and it is a field, not a message", () => {
    expect(transform(`const form = { name: '', defaultMessage: '' };`)).toBeNull();
    expect(transform(`const m = { id: 'a.b', defaultMessage: 'Hi' }; const form = { defaultMessage: '' };`)).toBe(
      `const m = { id: 'a.b', defaultMessage: [{"type":0,"value":"Hi"}] }; const form = { defaultMessage: '' };`,
    );
  });

  it('stops the build on a message it cannot parse ahead, and leaves code outside the client alone', () => {
    expect(() => transform('const m = { id: `a`, defaultMessage: `Hi ${x}` };')).toThrow(/cannot parse ahead/);
    expect(transform(`const m = { id: 'a.b', defaultMessage: 'Hi' };`, '/elsewhere/x.ts')).toBeNull();
  });
});
