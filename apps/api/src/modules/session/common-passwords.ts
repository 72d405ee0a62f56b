/**
 * Passwords that attackers try first (the well-known top of public breach lists), at least 8
 * characters long since shorter ones are refused anyway. Compared case-insensitively.
 */
const COMMON_PASSWORDS = `
password password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword passpass
12345678 123456789 1234567890 0123456789 987654321 87654321 11111111 00000000 88888888
99999999 12121212 11223344 12341234 12344321 123123123 147258369 159753456 741852963
qwertyui qwertyuiop qwerty12 qwerty123 qwerty1234 1qaz2wsx zaq12wsx 1q2w3e4r 1q2w3e4r5t
q1w2e3r4 q1w2e3r4t5 1234qwer qwer1234 123qweasd qweasdzxc asdfghjk asdfghjkl asdfasdf
zxcvbnm1 zxcvbnm123 abcd1234 1234abcd abc12345 abcdefgh aa123456 a1234567 iloveyou
iloveyou1 iloveyou2 sunshine sunshine1 princess princess1 football football1 baseball
basketball welcome1 welcome12 welcome123 letmein1 letmein123 trustno1 superman batman123
starwars whatever dragon12 dragon123 monkey123 shadow12 master12 master123 michael1
jennifer michelle jordan23 liverpool chelsea1 arsenal1 chocolate butterfly computer
internet freedom1 changeme changeme1 administrator admin123 admin1234 adminadmin
administrator1 root1234 toor1234 test1234 testtest testing1 testing123 guest123 default1
default123 secret12 secret123 mypassword newpassword temp1234 temppass login123 access14
security firebird charlie1 samsung1 google123 facebook1 linkedin qazwsxedc 1qazxsw2
inventory inventory1 warehouse warehouse1 airtalk1 lifeline1
`
  .split(/\s+/)
  .filter(Boolean);

const COMMON = new Set(COMMON_PASSWORDS.map((password) => password.toLowerCase()));

export const isCommonPassword = (password: string): boolean => COMMON.has(password.toLowerCase());
