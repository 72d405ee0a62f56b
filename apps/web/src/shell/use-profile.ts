import { profileEndpoint, type Profile } from '@inventory/contract';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from './http-client';

export const PROFILE_QUERY_KEY = ['profile'] as const;

/** The signed-in user's profile; `data` is undefined while loading or when it failed. */
export function useProfile() {
  return useQuery<Profile>({
    queryKey: PROFILE_QUERY_KEY,
    queryFn: async () => (await callEndpoint(profileEndpoint)).data,
    staleTime: 60_000,
  });
}
