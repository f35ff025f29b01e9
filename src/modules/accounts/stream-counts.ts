import { Injectable } from '@nestjs/common';

/**
 * How many streams a key holds open on every instance, as the stream module reports it (it registers its source here; the
 * accounts module cannot depend on the stream module, which depends on it). 0 until a source registers.
 */
@Injectable()
export class StreamCounts {
  private source: ((keyId: string) => Promise<number> | number) | null = null;

  register(source: (keyId: string) => Promise<number> | number): void {
    this.source = source;
  }

  async forKey(keyId: string): Promise<number> {
    return this.source ? this.source(keyId) : 0;
  }
}
