/** Whether the identity provider's redirect comes back from a sign-in or from linking an account (the account page sets `link`). */
export const IDP_MODE_KEY = 'vellum.studio.idpMode';
