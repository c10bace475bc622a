/** The auth module's change types: API tokens created and revoked (journaled as admin activity). */
declare module '../../domain/changes.ts' {
  interface ChangeTypes {
    'token.created': { type: 'token.created'; tokenId: number; name: string };
    'token.revoked': { type: 'token.revoked'; tokenId: number; name: string };
  }
}

export {};
