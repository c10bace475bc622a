/** The sentence a failure carries (the server's reason, for an ApiError), for any page to show. */
export const reasonOf = (error: unknown): string => (error instanceof Error && error.message ? error.message : 'Unknown error');
