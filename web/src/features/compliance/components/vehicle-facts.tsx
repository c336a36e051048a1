// Make, model, year and colour beside the verdict, as the insurance check shows them, so staff can confirm it is the right car.
import type { Vehicle } from "@vics/shared";

interface VehicleFactsProps {
  vehicle?: Vehicle;
  status: "pending" | "error" | "success";
}

export function VehicleFacts({ vehicle, status }: VehicleFactsProps) {
  if (!vehicle) {
    // The verdict stands on its own; the vehicle is only a cross-check.
    return (
      <p className="vehicle-facts__missing">
        {status === "error"
          ? "Vehicle details are not available right now. The checks below are not affected."
          : "Loading vehicle details…"}
      </p>
    );
  }
  return (
    <dl className="vehicle-facts">
      <div className="vehicle-facts__item">
        <dt>Make</dt>
        <dd>{vehicle.make}</dd>
      </div>
      <div className="vehicle-facts__item">
        <dt>Model</dt>
        <dd>{vehicle.model}</dd>
      </div>
      <div className="vehicle-facts__item">
        <dt>Year</dt>
        <dd>{vehicle.year}</dd>
      </div>
      <div className="vehicle-facts__item">
        <dt>Colour</dt>
        <dd>{vehicle.color}</dd>
      </div>
    </dl>
  );
}
