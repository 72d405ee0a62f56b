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
  permissionListEndpoints,
  resetUserPasswordEndpoint,
  roleListEndpoints,
  updateRoleEndpoint,
  updateUserEndpoint,
  userActivityEndpoint,
  userListEndpoints,
  type CreateRoleInput,
  type CreateUserInput,
  type Permission,
  type UpdateRoleInput,
  type UpdateUserInput,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { PROFILE_QUERY_KEY } from '../../../shell/use-profile';

/** Keyed by path, as every toolkit list is (resource-queries.ts): one refresh covers the list. */
const usersKey = [userListEndpoints.list.path] as const;
const rolesKey = [roleListEndpoints.list.path] as const;
const permissionsKey = [permissionListEndpoints.list.path] as const;

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

/** Every role (a site has tens), for pickers, or to find a role not on the page shown. */
export function useAllRoles(enabled = true) {
  return useQuery({
    queryKey: [...rolesKey, 'all'],
    queryFn: async () => (await callEndpoint(listRolesEndpoint, { query: { limit: 200 } })).data,
    enabled,
  });
}

/** Every permission, for the role matrix: the list's pages one after another. */
export function useAllPermissions() {
  return useQuery({
    queryKey: [...permissionsKey, 'all'],
    queryFn: async () => {
      const permissions: Permission[] = [];
      let cursor: string | undefined;
      do {
        const { data } = await callEndpoint(listPermissionsEndpoint, {
          query: { limit: 200, cursor },
        });
        permissions.push(...data.items);
        cursor = data.nextCursor ?? undefined;
      } while (cursor);
      return permissions;
    },
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
