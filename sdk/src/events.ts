import { defineEvent } from '@tessera/core';

/** Raised by the request client for the special envelope codes (no toast is shown for them). */
export const Unauthorized = defineEvent<{ url: string; logId: string }>('api.unauthorized', 'A call answered with the unauthorized code.');
export const NoAccess = defineEvent<{ url: string; logId: string }>('api.noAccess', 'A call was refused for lack of access.');
export const CountryRestricted = defineEvent<{ url: string; logId: string }>('api.countryRestricted', 'A call answered with the country-restricted code.');
export const TokenInsufficient = defineEvent<{ url: string; logId: string; code: number }>('api.tokenInsufficient', 'A call answered with a token-insufficient code.');
