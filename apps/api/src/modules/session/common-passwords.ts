import { PASSWORD_MIN_LENGTH } from '@inventory/contract';
import { dictionary } from '@zxcvbn-ts/language-common';

/** What the breached list lacks: this site's words and a few sequences attackers try early. */
const SITE_PASSWORDS = `
inventory inventory1 warehouse1 airtalk1 lifeline1
p@ssword 0123456789 987654321 87654321 12121212 12341234 123123123 abcdefgh admin1234
adminadmin administrator1 root1234 toor1234 guest123 default123 login123 facebook1 linkedin
`
  .split(/\s+/)
  .filter(Boolean);

/**
 * About 49,000 passwords ranked from public breach corpora (zxcvbn-ts's common list, MIT) and the
 * site's words, read once at start, lower-cased. Those shorter than the minimum length are
 * refused anyway and left out: about 18,000 stay.
 */
const COMMON = new Set(
  [...dictionary['passwords-common'], ...SITE_PASSWORDS]
    .filter((password) => password.length >= PASSWORD_MIN_LENGTH)
    .map((password) => password.toLowerCase()),
);

/** True for a breached or site-specific password, compared case-insensitively. */
export const isCommonPassword = (password: string): boolean => COMMON.has(password.toLowerCase());
