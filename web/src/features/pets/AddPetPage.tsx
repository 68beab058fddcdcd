import { PageHeader } from '../../components/PageHeader';
import { ClientPetRegistration } from './ClientPetRegistration';

/** client/pet/add and client/pet/register: the registration form alone. */
export function AddPetPage() {
  return (
    <>
      <PageHeader title="Add a pet" subtitle="It takes a couple of minutes; a microchip number makes it count." />
      <ClientPetRegistration />
    </>
  );
}
