import FindMyWay from 'find-my-way';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/**
 * Knows every registered route, so that a request for a known path with the wrong method is answered
 * 405 method_not_allowed (with Allow) rather than 404.
 */
export class RouteIndex {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true });
  private readonly methods = new Map<string, Set<Method>>();

  add(method: string | string[], url: string): void {
    for (const m of Array.isArray(method) ? method : [method]) {
      const mm = m.toUpperCase() as Method;
      // CORS pre-flight and automatic HEAD routes match every path; they say nothing about the resource.
      if (mm === 'OPTIONS' || mm === 'HEAD') continue;
      if (!this.methods.has(url)) {
        this.methods.set(url, new Set());
        this.router.on(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'], url, () => undefined, { url });
      }
      this.methods.get(url)!.add(mm);
    }
  }

  /** Every registered route pattern with its methods. */
  list(): Array<{ url: string; methods: Method[] }> {
    return [...this.methods].map(([url, methods]) => ({ url, methods: [...methods] }));
  }

  /** Methods allowed on a concrete path, or null when no route matches it at all. */
  allowed(path: string): Method[] | null {
    const found = this.router.find('GET', path.split('?')[0] ?? path);
    if (!found) return null;
    const url = (found.store as { url: string } | undefined)?.url;
    const set = url ? this.methods.get(url) : undefined;
    return set ? [...set] : null;
  }
}
