import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError } from './api-error.js';

const TYPE_CONSTRAINTS = new Set(['whitelistValidation', 'isInt', 'isNumber', 'isBoolean', 'isString', 'isIn', 'isEnum', 'isArray', 'isDateString', 'isISO8601']);

function firstFailure(errors: ValidationError[], prefix = ''): { path: string; message: string; context?: Record<string, unknown> } | null {
  for (const e of errors) {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    if (e.constraints && Object.keys(e.constraints).length) {
      // Report a wrong type before a range ("must be an integer" rather than "must not be greater than").
      const entries = Object.entries(e.constraints);
      const [name, message] = (entries.find(([n]) => TYPE_CONSTRAINTS.has(n)) ?? entries[0]) as [string, string];
      const context = e.contexts?.[name] as Record<string, unknown> | undefined;
      return { path, message, context };
    }
    if (e.children?.length) {
      const inner = firstFailure(e.children, path);
      if (inner) return inner;
    }
  }
  return null;
}

/** Turns class-validator failures into 400 invalid_request naming the parameter and the reason. */
export function validationException(errors: ValidationError[]): ApiError {
  const f = firstFailure(errors);
  if (!f) return new ApiError('invalid_request', 'Invalid request');
  if (f.message.includes('should not exist')) {
    return new ApiError('invalid_request', `Unknown parameter "${f.path}"`, { parameter: f.path });
  }
  if (f.context?.code === 'offset_too_large') {
    return new ApiError('offset_too_large', `Invalid parameter "${f.path}": ${f.message}`, {
      parameter: f.path,
      max_offset: Number(f.context.max_offset),
    });
  }
  return new ApiError('invalid_request', `Invalid parameter "${f.path}": ${f.message}`, { parameter: f.path });
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
    exceptionFactory: validationException,
  });
}
