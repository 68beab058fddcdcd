import { messages, ui, type BillingOverview, type CheckoutOrder, type LifetimePrice, type PaymentCompletion, type Plan, type User, type cardSchema } from '@petreg/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, ApiError } from '../../app/api';
import { toast } from '../../app/toast';
import { useSession } from '../auth/session';

/** Where the server sends the browser next: a checkout page, the Thank You page or back to the plans. */
interface Redirect {
  location: string;
}

const billingKey = ['payment', 'billing'] as const;
const orderKey = (sessionId: string) => ['checkout', 'local', sessionId] as const;

export function usePlans() {
  return useQuery({
    queryKey: ['pet', 'plans'],
    queryFn: async ({ signal }) => (await api.get<{ plans: Plan[] }>('pet/plans', { signal })).plans,
    staleTime: Infinity,
  });
}

export interface CollarTagPlan {
  /** Dollars. */
  planPrice: number;
  currency: string;
  /** Out of stock for now: the checkbox stays disabled (spec 2.4). */
  inStock: boolean;
}

/** The QR collar tag's price; asked only while the upsell is switched on. */
export function useCollarTagPlan(enabled: boolean) {
  return useQuery({
    queryKey: ['pet', 'collar-tag-plan'],
    queryFn: ({ signal }) => api.get<CollarTagPlan>('pet/collar-tag-plan', { signal }),
    enabled,
    staleTime: Infinity,
  });
}

export interface PlanChoice {
  petId: number;
  planId: number;
  /** True in the sign-up flow (pet-subscription), false inside the client area. */
  petFlow: boolean;
  isTagSelected: boolean;
  /** The partner coupon, sent when the pet's chip earns it. */
  coupon: string | null;
}

/** Spec 4, plan selected: the pet's plan is updated, then the checkout address is requested. */
export function useChoosePlan() {
  return useMutation({
    mutationFn: async ({ petId, planId, petFlow, isTagSelected, coupon }: PlanChoice) => {
      await api.put<{ id: number }>('Pet/update-plan', { id: petId, planId });
      const query = new URLSearchParams({ petFlow: String(petFlow), isTagSelected: String(isTagSelected) });
      if (coupon) query.set('coupon', coupon);
      return api.get<Redirect>(`checkout/stripe-subscription/${petId}?${query}`);
    },
  });
}

/** What lifetime cover costs the pet now, its yearly cover's credit taken off. */
export function useLifetimePrice(petId: number) {
  return useQuery({
    queryKey: ['checkout', 'lifetime-price', petId],
    queryFn: ({ signal }) => api.get<LifetimePrice>(`checkout/lifetime-price/${petId}`, { signal }),
  });
}

/** The order on the portal's own checkout page. */
export function useCheckoutOrder(sessionId: string) {
  return useQuery({
    queryKey: orderKey(sessionId),
    queryFn: ({ signal }) => api.get<CheckoutOrder>(`checkout/local/${encodeURIComponent(sessionId)}`, { signal }),
  });
}

export type CardDetails = z.output<typeof cardSchema>;

export function usePayCheckout(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (card: CardDetails) => api.post<Redirect>(`checkout/local/${encodeURIComponent(sessionId)}/pay`, card),
    onError: (error) => {
      // 409: paid or canceled meanwhile (another tab), or refused because the pet's chip or cover changed.
      // The order's new state decides where to go; the reason goes along as a toast, as the page is left.
      if (error instanceof ApiError && error.status === 409) {
        toast(error.message, { variant: 'error', duration: ui.checkoutErrorMs });
        return queryClient.invalidateQueries({ queryKey: orderKey(sessionId) });
      }
    },
  });
}

export function useCancelCheckout(sessionId: string) {
  return useMutation({
    mutationFn: () => api.post<Redirect>(`checkout/local/${encodeURIComponent(sessionId)}/cancel`),
  });
}

/** About ten seconds of asking while the payment provider's confirmation has not arrived (409). */
const completionRetries = 5;
const completionRetryMs = 2000;

/**
 * The Thank You page's order. Once it is paid the owner holds the paid role and a subscription, so the
 * session's user is read again (Member Perks in the navigation, Subscription in the user menu).
 */
export function usePaymentCompletion(sessionId: string | null) {
  const { updateUser } = useSession();
  return useQuery({
    queryKey: ['payment', 'complete', sessionId],
    enabled: sessionId !== null,
    queryFn: async ({ signal }) => {
      const completion = await api.get<PaymentCompletion>(`payment/complete/${encodeURIComponent(sessionId!)}`, { signal });
      await api.get<User>('Users/current-user', { signal }).then(updateUser, (error: unknown) => {
        console.warn('Could not refresh the signed-in user after payment.', error);
      });
      return completion;
    },
    // Only a payment not confirmed yet is worth asking again; one due for a refund stays so.
    retry: (failures, error) => error instanceof ApiError && error.errors[0] === messages.paymentNotComplete && failures < completionRetries,
    retryDelay: completionRetryMs,
    staleTime: Infinity,
  });
}

/** The portal's own billing dashboard: the owner's plans and payments. */
export function useBilling() {
  return useQuery({
    queryKey: billingKey,
    queryFn: ({ signal }) => api.get<BillingOverview>('payment/billing', { signal }),
  });
}

/** Stops a yearly plan from renewing; the chip stays registered until it expires. */
export function useCancelRenewal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscriptionId: string) => api.post<boolean>(`payment/subscriptions/${encodeURIComponent(subscriptionId)}/cancel`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKey }),
  });
}
