// The web app's server entry: the finder's pages rendered on the server from the same components the
// browser hydrates (built by `vite build --ssr` into web/dist-ssr, imported by the server at run time).
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import type { FinderPageRenderer } from '@petreg/contract';
import { dehydrate } from '@tanstack/react-query';
import { StrictMode, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { finderPageStateScript } from './app/finderPageState';
import { Providers } from './app/providers';
import { createQueryClient } from './app/queryClient';
import { publicSettingsKey } from './app/settings';
import { publicProfileKey, shortLinkTargetKey } from './features/public/api';
import { IslandMarks } from './features/public/Island';
import { islandIdPrefix, IslandRoot } from './features/public/IslandRoot';
import { islands } from './features/public/islands';
import { finderRoutes } from './features/public/routes';

/** The finder's routes where the browser's route table holds them: under its pathless root. */
const handler = createStaticHandler([{ children: finderRoutes }]);

/**
 * The page at `url` from the answers the server read, each under the key its API call has in the
 * browser. MUI's styles of what the page shows go with it (emotion's critical CSS), so it reads as meant
 * before any script or style sheet arrives. The page is never hydrated as a whole: its islands (the
 * parts that need the browser) are rendered each in a root of its own, which the finder pages' script
 * hydrates from the same answers.
 */
export const renderFinderPage: FinderPageRenderer = async (url, data) => {
  const queryClient = createQueryClient();
  queryClient.setQueryData(publicSettingsKey, data.settings);
  if (data.profile) queryClient.setQueryData(publicProfileKey(data.profile.publicId), data.profile.answer);
  if (data.shortLink) queryClient.setQueryData(shortLinkTargetKey(data.shortLink.code), data.shortLink.target);

  const context = await handler.query(new Request(new URL(url, 'http://localhost')));
  if (context instanceof Response) throw new Error(`No finder's page at ${url}`);
  const cache = createCache({ key: 'css' });
  const emotion = createEmotionServer(cache);
  const marks: { name: keyof typeof islands; props: object }[] = [];
  const page = renderToString(
    <StrictMode>
      <CacheProvider value={cache}>
        <IslandMarks value={marks}>
          <Providers queryClient={queryClient} session={{ status: 'guest' }}>
            <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
          </Providers>
        </IslandMarks>
      </CacheProvider>
    </StrictMode>,
  );
  // Each island in its own root, as the browser hydrates it (its ids, from useId, are that root's).
  const root = page.replace(/<!--island:(\d+)-->/g, (_, index: string) => {
    const { name, props } = marks[Number(index)]!;
    const Island = islands[name] as ComponentType<object>;
    return renderToString(
      <IslandRoot cache={cache} queryClient={queryClient}>
        <Island {...props} />
      </IslandRoot>,
      { identifierPrefix: islandIdPrefix(Number(index)) },
    );
  });
  const styles = emotion.constructStyleTagsFromChunks(emotion.extractCriticalToChunks(root));
  return { head: styles + finderPageStateScript(dehydrate(queryClient)), root };
};
