import { Rating, Stack, Typography } from '@mui/material';
import { formatRating } from './vetDisplay';

/** Stars to 0.1 with the number and how many reviews it rests on (spec 2.5). */
export function VetRating({ rating, reviewsCount }: { rating: number | null; reviewsCount?: number | null }) {
  if (rating === null) {
    return (
      <Typography variant="body2" color="text.secondary">
        No rating yet
      </Typography>
    );
  }
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="body2" sx={{ fontWeight: 700 }}>
        {formatRating(rating)}
      </Typography>
      <Rating
        value={rating}
        precision={0.1}
        readOnly
        size="small"
        getLabelText={(value) => `Rated ${formatRating(value)} out of 5`}
      />
      {reviewsCount != null && (
        <Typography variant="body2" color="text.secondary">
          ({reviewsCount} {reviewsCount === 1 ? 'review' : 'reviews'})
        </Typography>
      )}
    </Stack>
  );
}
