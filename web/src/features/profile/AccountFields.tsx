import { formatPhone, reminderSwitches, type ProfileInput, type User } from '@petreg/contract';
import { Grid, type GridProps } from '@mui/material';
import type { Control } from 'react-hook-form';
import { FormCheckbox } from '../../components/FormCheckbox';
import { FormSelect } from '../../components/FormSelect';
import { FormTextField } from '../../components/FormTextField';
import { useStates } from './api';

/** The account fields the owner's profile (spec 2.6) and the administrator's user card (spec 2.7) share. */
export type AccountValues = Omit<ProfileInput, 'photo' | 'currentPassword'>;

type NameValues = Pick<AccountValues, 'firstName' | 'lastName'>;
type AddressValues = Pick<AccountValues, 'address1' | 'address2' | 'city' | 'stateId' | 'zipcode'>;
type NotificationValues = Pick<AccountValues, 'notifyByEmail' | 'notifyBySms' | 'textFoundReports' | keyof typeof reminderSwitches>;

/** A stored account as the values of the fields both forms share. */
export function accountFormValues({ data }: User): AccountValues {
  return {
    firstName: data.firstName,
    lastName: data.lastName,
    email: data.email,
    phoneNumber: formatPhone(data.phoneNumber),
    address1: data.address1 ?? '',
    address2: data.address2 ?? '',
    city: data.city ?? '',
    stateId: data.stateId,
    zipcode: data.zipcode ?? '',
    notifyByEmail: data.notifyByEmail,
    notifyBySms: data.notifyBySms,
    textFoundReports: data.textFoundReports,
    renewalReminders: data.renewalReminders,
    chipScanReminders: data.chipScanReminders,
  };
}

interface AccountFieldsProps<T extends NameValues | AddressValues | NotificationValues, C, O> {
  /** The form holding the fields under the names of AccountValues. */
  control: Control<T, C, O>;
  disabled: boolean;
}

interface AutoFillProps {
  /** The person's own details: the browser may offer the ones it knows. Off for someone else's. */
  autoFill: boolean;
}

/**
 * A form's field names cannot be checked against a type parameter that is still open here; each piece's
 * bound on T has already checked that the caller's form holds the fields it names, so its control is read
 * as a form of the account's fields.
 */
const narrowed = <V extends (NameValues & AddressValues) | NotificationValues>(control: unknown) => control as Control<V>;

type TextFieldName = keyof Omit<NameValues & AddressValues, 'stateId'>;

/** One text field of the account as an item of the form's grid. */
function AccountTextField({
  control,
  name,
  label,
  autoFill,
  token,
  disabled,
  size = { xs: 12, sm: 6 },
}: AutoFillProps & {
  control: Control<NameValues & AddressValues>;
  name: TextFieldName;
  label: string;
  /** What the browser may fill in (an HTML autocomplete token). */
  token: string;
  disabled: boolean;
  size?: GridProps['size'];
}) {
  return (
    <Grid size={size}>
      <FormTextField control={control} name={name} label={label} autoComplete={autoFill ? token : 'off'} disabled={disabled} />
    </Grid>
  );
}

/** First and last name, as grid items of the surrounding form's grid. */
export function NameFields<T extends NameValues, C, O>({ control, ...props }: AccountFieldsProps<T, C, O> & AutoFillProps) {
  const fields = narrowed<NameValues & AddressValues>(control);
  return (
    <>
      <AccountTextField control={fields} name="firstName" label="First Name" token="given-name" {...props} />
      <AccountTextField control={fields} name="lastName" label="Last Name" token="family-name" {...props} />
    </>
  );
}

/** Address 1 and 2, city, state and zip code, as grid items of the surrounding form's grid. */
export function AddressFields<T extends AddressValues, C, O>({ control, ...props }: AccountFieldsProps<T, C, O> & AutoFillProps) {
  const fields = narrowed<NameValues & AddressValues>(control);
  const states = useStates();
  return (
    <>
      <AccountTextField control={fields} name="address1" label="Address 1" token="address-line1" {...props} />
      <AccountTextField control={fields} name="address2" label="Address 2" token="address-line2" {...props} />
      <AccountTextField control={fields} name="city" label="City" token="address-level2" size={{ xs: 12, sm: 5 }} {...props} />
      <Grid size={{ xs: 7, sm: 4 }}>
        <FormSelect
          control={fields}
          name="stateId"
          label="State"
          options={states.data}
          emptyOption="None"
          disabled={props.disabled}
          helperText={states.isError ? 'The list of states could not be loaded' : undefined}
        />
      </Grid>
      <AccountTextField control={fields} name="zipcode" label="Zip Code" token="postal-code" size={{ xs: 5, sm: 3 }} {...props} />
    </>
  );
}

/**
 * The e-mail and SMS notification switches, the found reports' texts and the reminders the owner may
 * turn off (the reminders' e-mails link here), as grid items of the surrounding form's grid.
 */
export function NotificationSwitches<T extends NotificationValues, C, O>({ control, disabled }: AccountFieldsProps<T, C, O>) {
  const fields = narrowed<NotificationValues>(control);
  return (
    <>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormCheckbox control={fields} name="notifyByEmail" label="Email notifications" variant="switch" disabled={disabled} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormCheckbox control={fields} name="notifyBySms" label="SMS notifications" variant="switch" disabled={disabled} />
      </Grid>
      <Grid size={12}>
        <FormCheckbox
          control={fields}
          name="textFoundReports"
          label="Text me when someone reports finding my pet"
          variant="switch"
          disabled={disabled}
        />
      </Grid>
      {(Object.keys(reminderSwitches) as (keyof typeof reminderSwitches)[]).map((name) => (
        <Grid key={name} size={12}>
          <FormCheckbox control={fields} name={name} label={reminderSwitches[name]} variant="switch" disabled={disabled} />
        </Grid>
      ))}
    </>
  );
}
