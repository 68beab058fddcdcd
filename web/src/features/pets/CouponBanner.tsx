import { couponCode, couponPercentOff, isCouponChip } from '@petreg/contract';
import { ContentCopy, LocalOffer } from '@mui/icons-material';
import { Alert, AlertTitle, Button } from '@mui/material';
import { useEffect } from 'react';
import { toast } from '../../app/toast';

/** Where the plan choice later finds out that the chip being registered earns the discount (spec 4). */
const couponEligibleKey = 'couponEligible';

async function copyCouponCode() {
  try {
    await navigator.clipboard.writeText(couponCode);
    toast('Coupon code copied', { variant: 'success' });
  } catch {
    toast(`Copy failed. The coupon code is ${couponCode}.`, { variant: 'warning' });
  }
}

/** Spec 1: chips of the partner prefixes get a discount; the banner shows while such a chip id is typed. */
export function CouponBanner({ chipId }: { chipId: string | null | undefined }) {
  const eligible = isCouponChip(chipId);

  useEffect(() => {
    if (eligible) sessionStorage.setItem(couponEligibleKey, 'true');
    else sessionStorage.removeItem(couponEligibleKey);
  }, [eligible]);

  if (!eligible) return null;
  return (
    <Alert
      severity="success"
      icon={<LocalOffer />}
      action={
        <Button
          color="inherit"
          size="small"
          startIcon={<ContentCopy />}
          onClick={() => void copyCouponCode()}
          sx={{ whiteSpace: 'nowrap' }}
        >
          Copy code
        </Button>
      }
    >
      <AlertTitle>Your microchip qualifies for {couponPercentOff}% off</AlertTitle>
      Use coupon code <strong>{couponCode}</strong> at checkout to get {couponPercentOff}% off your plan.
    </Alert>
  );
}
