import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AppTheme } from './theme';

const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will not change on retry; the http client already handles 401.
    queries: { retry: false, refetchOnWindowFocus: false },
  },
});

/**
 * Server state and the theme for the signed-in layouts. Kept out of the entry so that the
 * login page does not load them.
 */
export function ShellProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AppTheme>{children}</AppTheme>
    </QueryClientProvider>
  );
}
