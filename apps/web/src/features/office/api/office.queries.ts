import {
  createRoleEndpoint,
  createUserEndpoint,
  deleteRoleEndpoint,
  deleteUserEndpoint,
  endUserSessionsEndpoint,
  getUserEndpoint,
  listPermissionsEndpoint,
  listRolesEndpoint,
  listUserSessionsEndpoint,
  listUsersEndpoint,
  resetUserPasswordEndpoint,
  updateRoleEndpoint,
  updateUserEndpoint,
  userActivityEndpoint,
  type CreateRoleInput,
  type CreateUserInput,
  type UpdateRoleInput,
  type UpdateUserInput,
  type UserListQuery,
} from '@inventory/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { PROFILE_QUERY_KEY } from '../../../shell/use-profile';

const usersKey = ['users'] as const;
const rolesKey = ['roles'] as const;
const permissionsKey = ['permissions'] as const;

export function useUserList(query: UserListQuery) {
  return useQuery({
    queryKey: [...usersKey, 'list', query],
    queryFn: async () => (await callEndpoint(listUsersEndpoint, { query })).data,
    placeholderData: keepPreviousData,
  });
}

/** One user, when not on the page of the list shown (a drawer opened from a shared link). */
export function useUser(id: number | null) {
  return useQuery({
    queryKey: [...usersKey, 'one', id],
    queryFn: async () => (await callEndpoint(getUserEndpoint, { params: { id: id! } })).data,
    enabled: id !== null,
    retry: false,
  });
}

export function useUserSessions(id: number | null) {
  return useQuery({
    queryKey: [...usersKey, id, 'sessions'],
    queryFn: async () =>
      (await callEndpoint(listUserSessionsEndpoint, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}

export function useUserActivity(id: number | null, enabled: boolean) {
  return useQuery({
    queryKey: [...usersKey, id, 'activity'],
    queryFn: async () => (await callEndpoint(userActivityEndpoint, { params: { id: id! } })).data,
    enabled: id !== null && enabled,
  });
}

export function useRoleList(
  query: {
    search?: string;
    page?: number;
    pageSize?: number;
    sort?: 'name' | 'user_count' | 'created_at';
    order?: 'asc' | 'desc';
  },
  enabled = true,
) {
  return useQuery({
    queryKey: [...rolesKey, 'list', query],
    queryFn: async () => (await callEndpoint(listRolesEndpoint, { query })).data,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Every role, for pickers, or to find a role not on the page shown. */
export const useAllRoles = (enabled = true) => useRoleList({ pageSize: 200 }, enabled);

/** Every permission, for the role matrix. */
export function useAllPermissions() {
  return useQuery({
    queryKey: [...permissionsKey, 'all'],
    queryFn: async () =>
      (await callEndpoint(listPermissionsEndpoint, { query: { pageSize: 500 } })).data.items,
    staleTime: 60_000,
  });
}

/** A mutation that refreshes the lists it touches, and the caller's own profile. */
function useOfficeMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await Promise.all(
        [usersKey, rolesKey, permissionsKey, PROFILE_QUERY_KEY].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}

export const useCreateUser = () =>
  useOfficeMutation((body: CreateUserInput) => callEndpoint(createUserEndpoint, { body }));
export const useUpdateUser = () =>
  useOfficeMutation(({ id, body }: { id: number; body: UpdateUserInput }) =>
    callEndpoint(updateUserEndpoint, { params: { id }, body }),
  );
export const useDeleteUser = () =>
  useOfficeMutation((id: number) => callEndpoint(deleteUserEndpoint, { params: { id } }));
export const useResetPassword = () =>
  useOfficeMutation((id: number) => callEndpoint(resetUserPasswordEndpoint, { params: { id } }));
export const useEndSessions = () =>
  useOfficeMutation((id: number) => callEndpoint(endUserSessionsEndpoint, { params: { id } }));
export const useCreateRole = () =>
  useOfficeMutation((body: CreateRoleInput) => callEndpoint(createRoleEndpoint, { body }));
export const useUpdateRole = () =>
  useOfficeMutation(({ id, body }: { id: number; body: UpdateRoleInput }) =>
    callEndpoint(updateRoleEndpoint, { params: { id }, body }),
  );
export const useDeleteRole = () =>
  useOfficeMutation((id: number) => callEndpoint(deleteRoleEndpoint, { params: { id } }));
