import type { FormInstance } from 'antd';
import { ApiError } from './http-client';
import { notify } from './notify';

/** The field messages of a 422 answer, or null when the error is of another kind. */
export function fieldErrorsOf(error: unknown): Record<string, string[]> | null {
  const message = error instanceof ApiError ? error.body?.message : undefined;
  return message && typeof message === 'object' ? message : null;
}

/**
 * Shows a failed call where the user looks: field messages on the form's fields (those the form
 * has), anything else as an error notification.
 */
export function showApiError(error: unknown, form?: FormInstance): void {
  const fields = fieldErrorsOf(error);
  if (!fields) {
    notify.error(error instanceof Error ? error.message : String(error));
    return;
  }
  const known = new Set(
    form ? Object.keys(form.getFieldsValue(true) as Record<string, unknown>) : [],
  );
  const onForm = Object.entries(fields).filter(([name]) => known.has(name));
  form?.setFields(onForm.map(([name, errors]) => ({ name, errors })));
  const elsewhere = Object.entries(fields).filter(([name]) => !known.has(name));
  for (const [, messages] of elsewhere) if (messages[0]) notify.error(messages[0]);
}
