import {
  lastSeenZip,
  messages,
  type AlertLocation,
  type AlertPrices,
  type EmailStats,
  type LostAlertForm,
  type Pet,
  type PetAlert,
  type PetProfile,
  type SendPetAlertInput,
  type ZipPlace,
} from '@petreg/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { petKey, userPetsKey } from '../pets/api';

const alertsKey = ['petalert', 'alerts', 'bypet'] as const;
const petAlertKey = (petId: number) => [...alertsKey, petId] as const;

/** While an alert's e-mails are still going out, its counts are asked for again this often. */
const STATS_REFRESH_MS = 10_000;
/** How often the sent page asks whether the payment came through and the alert went out. */
const SENDING_REFRESH_MS = 2_000;

/**
 * The pet's current alert, or null when it has none (the server's 404 "No Alerts found for pet").
 * `untilSent` asks again while the alert waits for its payment to be confirmed.
 */
export function usePetAlert(petId: number, { enabled = true, untilSent = false } = {}) {
  return useQuery({
    queryKey: petAlertKey(petId),
    queryFn: async ({ signal }) => {
      try {
        return await api.get<PetAlert>(`petalert/alerts/bypet/${petId}`, { signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    enabled,
    refetchInterval: (query) => (untilSent && query.state.data?.status === 'NEW' ? SENDING_REFRESH_MS : false),
  });
}

/** What an alert costs, and which of the owner's pets send theirs free (active protection). */
export function useAlertPrices() {
  return useQuery({
    queryKey: ['petalert', 'alert-price'],
    queryFn: ({ signal }) => api.get<AlertPrices>('petalert/alert-price', { signal }),
  });
}

/**
 * The alert's e-mail delivery. Asked again while a count is still zero: the outbox sends and mail
 * servers answer over the minutes after the alert goes out.
 */
export function useEmailStats(alertId: number) {
  return useQuery({
    queryKey: ['email', alertId, 'getEmailStats'],
    queryFn: ({ signal }) => api.get<EmailStats>(`email/${alertId}/getEmailStats`, { signal }),
    refetchInterval: (query) => {
      const stats = query.state.data;
      return stats && stats.counted > 0 && stats.delivered > 0 && stats.opened > 0 ? false : STATS_REFRESH_MS;
    },
  });
}

/** The place a ZIP code names ("Saint Louis, MO 63101"), once five digits are typed. */
export function useZipPlace(zip: string | null | undefined) {
  const valid = /^\d{5}$/.test(zip ?? '');
  return useQuery({
    queryKey: ['utilities', 'zip', zip],
    queryFn: ({ signal }) => api.get<ZipPlace>(`utilities/zip/${zip}`, { signal }),
    enabled: valid,
    staleTime: Infinity,
  });
}

export interface AlertToSend {
  form: LostAlertForm;
  /** The owner's profile ZIP code, sent when the switch says the pet was last seen at home. */
  homeZip: string | null;
}

/**
 * Spec 4, Lost alert: the pet is updated with the form (its missing date, last-seen ZIP and what
 * happened), then the alert is sent; the answer says where the browser goes next.
 */
export function useSendAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ form, homeZip }: AlertToSend) => {
      const { homeZipIsLastSeen: _homeZip, ...pet } = form;
      const zipCode = lastSeenZip(form, homeZip);
      const profile: PetProfile = { ...pet, zipCode };
      const saved = await api.put<Pet>('Pet/pet-profile', profile);
      queryClient.setQueryData(petKey(saved.id), saved);
      const alert: SendPetAlertInput = {
        name: pet.name,
        petId: pet.id,
        missingDate: pet.missingDate,
        zipCode,
        incidentDescription: pet.incidentDescription,
        status: 'NEW',
      };
      return api.post<AlertLocation>('petalert/send-mail-from-pet-alert', alert);
    },
    onSettled: (_result, _error, { form }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userPetsKey }),
        queryClient.invalidateQueries({ queryKey: petAlertKey(form.id) }),
      ]),
  });
}

/** POST checkout/checkout-lpa: the checkout of an alert that waits for its payment. */
export function useAlertCheckout() {
  return useMutation({
    mutationFn: (petId: number) => api.post<AlertLocation>('checkout/checkout-lpa', { petId }),
  });
}

/**
 * Spec 4: the pet is home; the alert ends, the lists are fetched again, and a toast says so, or says
 * "No Alerts found for pet" (info) when it had already ended. The toasts are the hook's own: the pet's
 * analytics, which asked, leave the page with the refreshed lists.
 */
export function useMarkAsFound() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (petId: number) => api.put<unknown>(`pet/mark-as-found/${petId}`, {}),
    onSuccess: () => toast(messages.petMarkedAsFound, { variant: 'success' }),
    onError: (error) => {
      if (error instanceof ApiError && error.errors.includes(messages.noAlertsFound)) toast(messages.noAlertsFound, { variant: 'info' });
      else toast(firstError(error, messages.genericError), { variant: 'error' });
    },
    onSettled: (_result, _error, petId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userPetsKey }),
        queryClient.invalidateQueries({ queryKey: alertsKey }),
        queryClient.invalidateQueries({ queryKey: petKey(petId) }),
      ]),
  });
}
