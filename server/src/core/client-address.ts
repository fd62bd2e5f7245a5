import net from 'node:net';

/**
 * A client's address as the shop names it: an IPv4 address that reached an IPv6 socket
 * (`::ffff:203.0.113.7`) is that IPv4 address. Anything else is returned as it came.
 */
export function plainAddress(address: string): string {
  // A socket's address as most connections give it (no mapped IPv4, no spaces) is answered as it is.
  if (address.charCodeAt(0) !== 58 /* : */ && address.charCodeAt(0) > 32 && address.charCodeAt(address.length - 1) > 32) return address;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address.trim());
  return mapped ? mapped[1]! : address.trim();
}

/**
 * The client an address limit counts against: an IPv4 address as it is, an IPv6 address by its /64
 * (the block one subscriber is given: rotating through it is still one client). IPv4 mapped into
 * IPv6, in either spelling, is the IPv4 address. What is not an address (a system task's name) is kept.
 */
export function addressKey(address: string): string {
  const plain = plainAddress(address);
  if (net.isIPv4(plain)) return plain;
  // A link-local address may carry its interface (`fe80::1%eth0`): not part of the address.
  const bare = plain.split('%')[0]!;
  if (!net.isIPv6(bare)) return plain;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
