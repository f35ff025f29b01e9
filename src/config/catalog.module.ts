import { Global, Module } from '@nestjs/common';
import { Catalog } from './catalog.js';

/** The reference catalog (config/catalog), loaded once and shared. */
@Global()
@Module({ providers: [{ provide: Catalog, useFactory: () => new Catalog() }], exports: [Catalog] })
export class CatalogModule {}
