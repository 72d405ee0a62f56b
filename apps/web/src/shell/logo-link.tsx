import { Link } from 'react-router';

/** The header logo; a click goes to the home page. */
export function LogoLink({ to, title }: { to: string; title: string }) {
  return (
    <Link
      to={to}
      aria-label="Home page"
      style={{ display: 'flex', alignItems: 'center', gap: 10, color: 'inherit' }}
    >
      <img src="/logo.svg" alt="" width={28} height={28} />
      <span style={{ fontWeight: 600, fontSize: 16 }}>{title}</span>
    </Link>
  );
}
