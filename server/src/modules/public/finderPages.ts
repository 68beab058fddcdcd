import { pathToFileURL } from 'node:url';
import { paths, withId, type FinderPageData, type FinderPageRenderer, type PublicProfile, type PublicSettings } from '@petreg/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, loggable } from '../../errors.js';
import { perIp } from '../../http.js';
import { builtFile, compressedCopies, compressedOnce, sendPage, type IndexPage, type Copies } from '../../builtWeb.js';
import { unmetered, type CacheMeter } from './caches.js';
import { publicLimits } from './routes.js';
import type { PublicService } from './service.js';

/**
 * The web build's server entry (web/dist-ssr/ssr.js), imported again when a build replaces it; null
 * without one (no build of it, as in development, where the browser renders every page). An import that
 * fails (an entry half written by a build under way, or broken) is tried again at the next look: Node
 * keeps a failed import under its address, so each try has an address of its own.
 */
export function builtFinderPageRenderer(entry: string): () => Promise<FinderPageRenderer> | null {
  let tries = 0;
  return builtFile(entry, (mtimeMs, forget) => {
    const load = import(`${pathToFileURL(entry).href}?built=${mtimeMs}&try=${++tries}`).then((module: { renderFinderPage?: unknown }) => {
      if (typeof module.renderFinderPage !== 'function') throw new Error(`${entry} exports no renderFinderPage`);
      return module.renderFinderPage as FinderPageRenderer;
    });
    load.catch(forget);
    return load;
  });
}

/** How long the public settings (read from the database) are kept for the pages. */
const SETTINGS_MS = 60_000;

/**
 * The public settings, read at most once a minute; the same object while they do not change, so the
 * pages rendered with them are kept. While the database does not answer, the last ones read.
 */
function heldSettings(read: () => Promise<PublicSettings>) {
  let held: { settings: PublicSettings; json: string; until: number } | null = null;
  return async (): Promise<PublicSettings> => {
    if (held && Date.now() < held.until) return held.settings;
    try {
      const settings = await read();
      const json = JSON.stringify(settings);
      held = { settings: held?.json === json ? held.settings : settings, json, until: Date.now() + SETTINGS_MS };
      return held.settings;
    } catch (error) {
      if (held) return held.settings;
      throw error;
    }
  };
}

/** The answer, or null when the service does not know what was asked for (its 404). */
async function orUnknown<T>(read: () => T | Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) return null;
    throw error;
  }
}

interface Rendered {
  template: string;
  settings: PublicSettings;
  copies: Copies;
}

interface Read {
  data: FinderPageData;
  /** What the page shows, kept while it does not change (a remembered profile, the settings); null: made for this request only. */
  shown: object | null;
  /** The address the page is kept under: made for another address (other letter case, a trailing slash), it is not kept. */
  canonicalPath: string;
}

export interface FinderPageDeps {
  publicPages: PublicService;
  settings: () => Promise<PublicSettings>;
  renderer: () => Promise<FinderPageRenderer> | null;
  /** The frame the pages are rendered into, with the finder pages' own script (web/finder.html). */
  frame: () => string | null;
  /** The app's page, which renders any page in the browser: sent when a finder's page cannot be rendered here. */
  indexPage: IndexPage;
  /** Hears whether each page came from those kept (counted for /metrics). */
  meter?: CacheMeter;
}

/**
 * The finder's pages (the lookup page, a pet's profile, a short link's page) rendered on the server from
 * the web app's own components, so the first answer already shows the pet, its status and the ways to
 * reach its owner, with no script. Fed by the public answers the service remembers; a page made from a
 * remembered answer is kept with it (and its compressed copies) until that answer is dropped, so a
 * remembered profile costs no database trip and no rendering. When the answers cannot be read (the
 * database out of reach with nothing remembered), the browser renders the page as it renders every screen.
 */
export const finderPageRoutes: FastifyPluginAsync<FinderPageDeps> = async (app, deps) => {
  const settings = heldSettings(deps.settings);
  const meter = deps.meter ?? unmetered;
  // Each load of the server entry, settled as null when it failed: no request (and no load nobody
  // waits for) meets a rejection, which would end the process. A failure is logged once until a load
  // succeeds again; meanwhile the browser renders the pages, as it does every screen.
  const loads = new WeakMap<Promise<FinderPageRenderer>, Promise<FinderPageRenderer | null>>();
  let failing = false;
  function renderer(): Promise<FinderPageRenderer | null> | null {
    const load = deps.renderer();
    if (!load) return null;
    let loaded = loads.get(load);
    if (!loaded) {
      loaded = load.then(
        (render) => {
          failing = false;
          return render;
        },
        (error: unknown) => {
          if (!failing) app.log.error({ err: loggable(error) }, "the web build's server entry cannot be loaded: the browser renders the finder pages until it can");
          failing = true;
          return null;
        },
      );
      loads.set(load, loaded);
    }
    return loaded;
  }
  // Loaded at start: the first finder would otherwise wait for the import (half a second).
  void renderer();
  // Keyed by the remembered answer: dropped with it.
  const kept = new WeakMap<object, Map<string, Rendered>>();

  async function renderPage(
    render: FinderPageRenderer,
    path: string,
    data: FinderPageData,
    template: string,
    copiesOf: (html: string) => Copies | Promise<Copies>,
  ): Promise<Rendered> {
    const { head, root } = await render(path, data);
    // Replaced by functions: a `$` in a pet's name means nothing to them. The page replaces the notice
    // that a screen needs JavaScript.
    const html = template.replace('<!--finder-page-head-->', () => head).replace(/<!--finder-page-->[\s\S]*?<!--\/finder-page-->/, () => root);
    return { template, settings: data.settings, copies: await copiesOf(html) };
  }

  async function sendFinderPage(request: FastifyRequest, reply: FastifyReply, read: (settings: PublicSettings) => Promise<Read>) {
    const template = deps.frame();
    const render = renderer();
    if (!template || !render) return deps.indexPage.send(request, reply) ? reply : reply.callNotFound();
    let rendered: Rendered;
    let data: FinderPageData;
    try {
      const page = await read(await settings());
      data = page.data;
      const path = request.url.split('?')[0]!;
      const keep = page.shown && path === page.canonicalPath ? page.shown : null;
      const known = keep ? kept.get(keep)?.get(path) : undefined;
      const hit = known?.template === template && known.settings === data.settings;
      meter.read('finder_page', hit);
      if (hit) rendered = known;
      else {
        const loaded = await render;
        if (!loaded) {
          deps.indexPage.send(request, reply);
          return reply;
        }
        // A page made for this request only (an unknown id, another letter case) is compressed
        // cheaply: a stranger may ask for a new one 60 times a minute.
        rendered = await renderPage(loaded, path, data, template, keep ? compressedCopies : (html) => compressedOnce(request, html));
        if (keep) kept.set(keep, (kept.get(keep) ?? new Map<string, Rendered>()).set(path, rendered));
      }
    } catch (error) {
      request.log.warn({ err: loggable(error) }, 'a finder page is left to the browser to render: its answers cannot be read or rendered');
      deps.indexPage.send(request, reply);
      return reply;
    }
    const unknown = data.profile?.answer === null || data.shortLink?.target === null;
    return sendPage(request, reply, rendered.copies, unknown ? 404 : 200);
  }

  /** A profile as the page shows it: remembered answers are the same object on each hit. */
  const profileOf = (publicId: string): Promise<PublicProfile | null> => orUnknown(() => deps.publicPages.profile(publicId));

  app.get(paths.microchipLookup, (request, reply) =>
    sendFinderPage(request, reply, async (current) => ({ data: { settings: current }, shown: current, canonicalPath: paths.microchipLookup })),
  );

  app.get(paths.petProfiles, (request, reply) =>
    sendFinderPage(request, reply, async (current) => ({ data: { settings: current }, shown: current, canonicalPath: paths.petProfiles })),
  );

  // The same limits as the answers they show: a page is no way around them to walk through profiles or codes.
  app.get<{ Params: { id: string } }>(`${paths.petProfiles}/:id`, { config: perIp(publicLimits.profile) }, (request, reply) =>
    sendFinderPage(request, reply, async (current) => {
      const publicId = request.params.id;
      const answer = await profileOf(publicId);
      return {
        data: { settings: current, profile: { publicId, answer } },
        shown: answer,
        canonicalPath: withId(paths.petProfiles, publicId.toLowerCase()),
      };
    }),
  );

  app.get<{ Params: { id: string } }>(`${paths.short}/:id`, { config: perIp(publicLimits.shortLink) }, (request, reply) =>
    sendFinderPage(request, reply, async (current) => {
      const code = request.params.id;
      const target = await orUnknown(() => deps.publicPages.shortLinkTarget(code));
      const answer = target === null ? null : await profileOf(target);
      return {
        data: { settings: current, shortLink: { code, target }, ...(target !== null && { profile: { publicId: target, answer } }) },
        shown: answer,
        canonicalPath: withId(paths.short, code.toLowerCase()),
      };
    }),
  );
};
