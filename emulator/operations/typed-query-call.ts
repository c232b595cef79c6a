/**
 * The checks a query-string call on one object type starts with (getObject, getAll, update), in the order the
 * upstream answers them: the callback, then the credentials, then the object name.
 */
import { authenticateQuery } from './caller.ts';
import type { EmulatorContext, OperationRequest } from '../emulator-context.ts';
import type { TenantScope } from '../store/object-store.ts';
import { badCallbackReply, isCallbackName, serviceError, type Reply } from '../http/reply.ts';

/** A call that passed those checks: where to answer, what the caller may see, and the known type it names. */
export interface TypedQueryCall {
  callback: string;
  scope: TenantScope;
  objectName: string;
}

/** The call's callback, scope and object name, or the reply to its first failed check (in the callback). */
export function checkTypedQueryCall(
  context: EmulatorContext,
  request: Pick<OperationRequest, 'query' | 'sessionId'>,
  requireUsername: boolean,
): TypedQueryCall | Reply {
  const { query } = request;
  const callback = query.get('callback');
  if (!isCallbackName(callback)) return badCallbackReply();
  const caller = authenticateQuery(context, request, requireUsername);
  if (!caller.ok) return serviceError(caller.message, callback);
  const objectName = query.get('objectName');
  if (objectName === null || objectName === '') return serviceError('missing objectName', callback);
  if (!context.store.isKnownType(objectName)) return serviceError('unknown object name', callback);
  return { callback, scope: caller.scope, objectName };
}
