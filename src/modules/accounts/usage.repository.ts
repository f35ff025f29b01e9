import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** SQL for the daily request totals of accounts. */
@Injectable()
export class UsageRepository {
  constructor(private readonly ds: DataSource) {}

  /** Adds counts to days in one statement (each instance adds its own; nothing is overwritten). */
  async add(entries: Array<{ accountId: string; day: string; requests: number }>): Promise<void> {
    if (!entries.length) return;
    const values = entries.map((_, i) => `($${i * 3 + 1}::text, $${i * 3 + 2}::date, $${i * 3 + 3}::bigint)`).join(',');
    await this.ds.query(
      `INSERT INTO account_usage (account_id, day, requests) VALUES ${values}
       ON CONFLICT (account_id, day) DO UPDATE SET requests = account_usage.requests + EXCLUDED.requests`,
      entries.flatMap((e) => [e.accountId, e.day, e.requests]),
    );
  }

  /** An account's count per day from a day on. */
  async since(accountId: string, fromDay: string): Promise<Map<string, number>> {
    const rows = (await this.ds.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, requests FROM account_usage WHERE account_id = $1 AND day >= $2::date`,
      [accountId, fromDay],
    )) as Array<{ day: string; requests: string | number }>;
    return new Map(rows.map((r) => [r.day, Number(r.requests)]));
  }
}
