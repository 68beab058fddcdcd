import { createContext, useContext, type ComponentProps, type ComponentType } from 'react';
import { islands, type IslandName } from './islands';

/** On the server: the islands met while rendering a finder's page, each then rendered in a root of its own. */
export const IslandMarks = createContext<{ name: IslandName; props: object }[] | null>(null);

/**
 * A part of a finder's page that the browser runs. The server renders it in a root of its own inside
 * this element, and the finder pages' script (finder.tsx) hydrates that root alone, from the props
 * written on the element: the page reads, links and calls with no script, and a phone evaluates and
 * hydrates only these parts. In the app (a page the browser renders) it is the component itself.
 */
type IslandProps<Name extends IslandName> = ComponentProps<(typeof islands)[Name]> & object;

export function Island<Name extends IslandName>({ name, props }: { name: Name; props: IslandProps<Name> }) {
  const marks = useContext(IslandMarks);
  if (marks) {
    const index = marks.push({ name, props }) - 1;
    // A placeholder the server replaces with the island's own markup (ssr.tsx).
    return <div data-island={name} data-island-props={JSON.stringify(props)} dangerouslySetInnerHTML={{ __html: `<!--island:${index}-->` }} />;
  }
  const Component = islands[name] as ComponentType<object>;
  // The same frame as on the server's page, so both lay out alike.
  return (
    <div>
      <Component {...props} />
    </div>
  );
}
