import { zodResolver } from '@hookform/resolvers/zod';
import { microchipLookupSchema } from '@petreg/contract';

/** The lookup form's rules: in a module of their own, so zod loads with the first search, not with the page. */
export const lookupResolver = zodResolver(microchipLookupSchema);
