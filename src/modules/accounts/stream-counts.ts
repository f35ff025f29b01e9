import { Injectable } from '@nestjs/common';

/**
 * How many streams a key holds open, as the stream module reports it (it registers its source here; the
 * accounts module cannot depend on the stream module, which depends on it). 0 until a source registers.
 */
@Injectable()
export class StreamCounts {
  private source: ((keyId: string) => number) | null = null;

  register(source: (keyId: string) => number): void {
    this.source = source;
  }

  forKey(keyId: string): number {
    return this.source ? this.source(keyId) : 0;
  }
}
