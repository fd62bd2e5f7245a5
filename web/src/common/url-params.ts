import { useCallback } from 'react';
import { useNavigate, useSearchParams, type NavigateOptions } from 'react-router-dom';

/** Parameters to set (a value) or remove (`null` or an empty string). */
export type UrlParamChanges = Record<string, string | null>;

/**
 * The page's query string, and a way to change some of its parameters that applies to the address as
 * it is at that moment. react-router's own `setSearchParams` starts a functional update from the
 * parameters of the screen's last render (a second change made before the screen caught up with the
 * first, such as two filters chosen quickly, brought the first one back), and is a new function
 * whenever the query changes (an effect that named it ran again on every change of the address).
 * This one reads the address when it is called and stays the same function.
 */
export function useUrlParams(): [URLSearchParams, (changes: UrlParamChanges, options?: NavigateOptions) => void] {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const change = useCallback(
    (changes: UrlParamChanges, options?: NavigateOptions) => {
      const next = new URLSearchParams(window.location.search);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === '') next.delete(key);
        else next.set(key, value);
      }
      void navigate(`?${next}`, options);
    },
    [navigate],
  );
  return [params, change];
}
