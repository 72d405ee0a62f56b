import { Result } from 'antd';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { DelayedFallback } from './delayed-fallback';
import { useProfile } from './use-profile';

/**
 * The current page, except while the profile says a temporary password must be changed: the
 * server answers nothing but the profile, the password change and sign-out until then, so the
 * page waits behind the password drawer instead of filling with refusals.
 */
export function PageOutlet() {
  const profile = useProfile();
  if (profile.data?.first_login === 1) {
    return (
      <Result
        status="info"
        title="Set a new password to continue"
        subTitle="Your account has a temporary password. Choose your own in the drawer, then sign in again."
      />
    );
  }
  return (
    <Suspense fallback={<DelayedFallback />}>
      <Outlet />
    </Suspense>
  );
}
