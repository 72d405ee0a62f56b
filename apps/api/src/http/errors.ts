import { describeAccess, type Access, type FieldErrors } from '@inventory/contract';

/** An error with an HTTP status and an answer the client may read. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly answer: string | FieldErrors,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof answer === 'string' ? answer : JSON.stringify(answer));
  }
}

/** 422 with field messages, as spec section 8 reads them. */
export class ValidationError extends ApiError {
  constructor(readonly fields: FieldErrors) {
    super(422, fields);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message = 'Sign in to continue: the session is missing, expired or ended.') {
    super(401, message);
  }
}

export class ForbiddenError extends ApiError {
  constructor(
    readonly access: Access,
    /** What the user was doing, said before what it needs. */
    context?: string,
  ) {
    super(403, `${context ? `${context} ` : ''}This needs ${describeAccess(access)}.`);
  }
}

export class NotFoundError extends ApiError {
  constructor(message: string) {
    super(404, message);
  }
}

export class ConflictError extends ApiError {
  constructor(message: string) {
    super(409, message);
  }
}

export const fieldError = (field: string, message: string) =>
  new ValidationError({ [field]: [message] });

/**
 * Turns a unique-index violation into a 422 on the field that index guards; any other error is
 * thrown on. `fields` maps index name to [field, message].
 */
export const uniqueViolationAs =
  (fields: Record<string, readonly [field: string, message: string]>) =>
  (error: unknown): never => {
    const { code, constraint } = error as { code?: string; constraint?: string };
    const field = code === '23505' && constraint ? fields[constraint] : undefined;
    if (field) throw new ValidationError({ [field[0]]: [field[1]] });
    throw error;
  };
