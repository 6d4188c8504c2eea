import type { ContentLocales } from '@vellum/client';
import { useSearchParams } from 'react-router';
import { useStudioConfig } from './config';

/** The content locale a document page shows (docs/studio.md, "Locales"). */
export interface ContentLocaleState {
  /** The server's locales (`GET /config/studio`); null where content has one language. */
  locales: ContentLocales | null;
  /**
   * The locale asked for in the address (`?locale=de-CH`) when it is a configured one other than
   * the default; undefined for the default, whose reads and writes name no locale at all (the
   * same requests, and cache keys, as without locales).
   */
  code: string | undefined;
  /** The locale shown: `code`, or the default. */
  shown: string | undefined;
}

/** The page's content locale, from its address; a code the server does not have is the default. */
export function useContentLocale(): ContentLocaleState {
  const [params] = useSearchParams();
  const locales = useStudioConfig().data?.locales ?? null;
  const asked = params.get('locale')?.toLowerCase();
  const found = asked ? locales?.list.find((l) => l.code.toLowerCase() === asked) : undefined;
  const code = found && found.code !== locales?.default ? found.code : undefined;
  return { locales, code, shown: code ?? locales?.default };
}

/** A locale's name for people: `German (de)`, or the code where it has no name of its own. */
export function localeName(locales: ContentLocales | null, code: string): string {
  const name = locales?.list.find((l) => l.code === code)?.name;
  return name && name !== code ? `${name} (${code})` : code;
}
