/**
 * For a TableContainer: the table while its container is at least `minWidth` wide, one card per row
 * below that, each cell led by its column name (the cell's data-label). It follows the container,
 * not the screen, since the side navigation and support panel take their share of wide screens.
 */
export function stackedTable(minWidth: number) {
  return {
    containerType: 'inline-size',
    [`@container (max-width: ${minWidth - 0.05}px)`]: {
      '& table, & tbody, & tr': { display: 'block' },
      // Still read out by screen readers; the labels take its place on screen.
      '& thead': { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)' },
      '& tbody tr': { border: 1, borderColor: 'divider', borderRadius: 2, px: 2, py: 1, mb: 1.5 },
      '& tbody td': {
        display: 'flex',
        // Right-aligned cells reverse their flex direction; a card keeps the label first.
        flexDirection: 'row',
        justifyContent: 'space-between',
        alignItems: 'center',
        gap: 2,
        border: 0,
        px: 0,
        py: 0.75,
        textAlign: 'right',
        whiteSpace: 'normal',
        overflowWrap: 'anywhere',
      },
      '& tbody td::before': { content: 'attr(data-label)', fontWeight: 600, color: 'text.secondary', textAlign: 'left', flexShrink: 0 },
      // A cell without a column name (actions) keeps its content to the right.
      '& tbody td:not([data-label])': { justifyContent: 'flex-end' },
      '& tbody td:not([data-label])::before': { content: 'none' },
      '& tbody td:not([data-label]):empty': { display: 'none' },
    },
  };
}
