import * as common from '@nestjs/common';
import * as core from '@nestjs/core';

// See nest-cjs-transform.cjs.
(globalThis as Record<string, unknown>).__nest_common__ = common;
(globalThis as Record<string, unknown>).__nest_core__ = core;
