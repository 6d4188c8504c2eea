import type { Page } from 'playwright-core';

/**
 * Gives the page's browser a virtual platform authenticator through the DevTools protocol (the
 * WebAuthn domain): a passkey made or used on the page is real WebAuthn, with the user verified
 * and no prompt to answer.
 */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
}
