import { Card, CardContent, CardHeader } from '@mui/material';
import { useNavigate } from 'react-router';
import { afterRegistration } from './nextStep';
import { PetRegistrationForm } from './PetRegistrationForm';

/** The registration form inside the owner's area. */
export function ClientPetRegistration() {
  const navigate = useNavigate();
  return (
    <Card component="section" aria-labelledby="register-pet-title">
      <CardHeader
        title="Register a pet"
        subheader="Add your pet's details and microchip so a finder can reach you."
        slotProps={{ title: { variant: 'h3', component: 'h2', id: 'register-pet-title' } }}
      />
      <CardContent>
        <PetRegistrationForm submitLabel="Save" onCreated={(created) => void navigate(afterRegistration(created, 'client'))} />
      </CardContent>
    </Card>
  );
}
