import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/database.ts';

/** Expired payloads removed by each write, at most: a short range scan of the expiry index (0011). */
const EXPIRED_PER_WRITE = 100;

/**
 * oidc-provider's storage (sessions, grants, codes, tokens, interactions) in the database, so
 * that a sign-in at the identity provider survives restarts and is shared by every instance.
 * Long as the adapter class oidc-provider asks for is: each method short.
 */
export function createOidcAdapterClass(db: Db) {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insertInto('oidc_payloads')
        .values({ model: this.model, id, ...row, consumed_at: null })
        .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
        .execute();
      // Expired payloads are never found again (findBy, on this process's clock): each write takes a
      // few of them away, leaving those another write is taking (skip locked), so that no two writes
      // wait for each other. The record is saved already: a failed clean-up must not fail the write.
      await db
        .deleteFrom('oidc_payloads')
        .where(({ eb, refTuple, selectFrom }) =>
          eb(
            refTuple('model', 'id'),
            'in',
            selectFrom('oidc_payloads')
              .select(['model', 'id'])
              .where('expires_at', '<=', new Date())
              .limit(EXPIRED_PER_WRITE)
              .forUpdate()
              .skipLocked()
              .$asTuple('model', 'id'),
          ),
        )
        .execute()
        .catch(() => {});
    }

    private async findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('oidc_payloads')
        .select(['payload', 'consumed_at', 'expires_at'])
        .where('model', '=', this.model)
        .where(column, '=', value)
        .executeTakeFirst();
      if (!row || (row.expires_at && row.expires_at.getTime() <= Date.now())) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
    }

    find = (id: string) => this.findBy('id', id);
    findByUid = (uid: string) => this.findBy('uid', uid);
    findByUserCode = (userCode: string) => this.findBy('user_code', userCode);

    async consume(id: string): Promise<void> {
      await db
        .updateTable('oidc_payloads')
        .set({ consumed_at: new Date() })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('oidc_payloads').where('model', '=', this.model).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute();
    }
  };
}
